import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type InstallerSettings, OSQUERY_MSI_URL, psQuote, renderInstaller, shQuote } from '../../lambdas/agents/installers.js';
import { PLATFORM_QUERIES } from '../../lambdas/agents/osquery-queries.js';
import { agentPlatforms, agentReportResultsSchema } from '../../lambdas/domain/agents.contract.js';

/**
 * The generated installers, checked without running them (issue 10: no script is run against this
 * machine's system): the shell one with `bash -n`, `dash -n` and ShellCheck (the Debian package, which
 * .ci/run installs), the Windows one structurally (there is no PowerShell here): its batch header, a
 * small PowerShell lexer for balanced brackets and closed strings, and the spec's steps, messages,
 * URLs and timeouts.
 */

const settings: InstallerSettings = {
  productName: "O'Reilly Shield",
  productSlug: 'oreilly-shield',
  apiBase: 'https://shield.example.com',
  enrollmentSecret: `enr_${'Ab1_-'.repeat(8)}Ab1`,
  customerEmail: "o'brien+it@shop.example.com",
  clientDomain: 'shop.example.com',
};

const work = mkdtempSync(join(tmpdir(), 'agent-installers-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const sh = renderInstaller('sh', settings);
const bat = renderInstaller('bat', settings);

function written(name: string, text: string): string {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
}

/** The body of a quoted heredoc: the lines between `<<'MARK'` and `MARK`. */
function heredoc(script: string, mark: string, occurrence = 0): string {
  const parts = script.split(`<<'${mark}'\n`);
  expect(parts.length, mark).toBeGreaterThan(occurrence + 1);
  return parts[occurrence + 1]!.split(`\n${mark}\n`)[0]!;
}

const hasShellcheck = spawnSync('shellcheck', ['--version']).status === 0;

describe('the macOS and Linux installer (.sh)', () => {
  it('parses in bash and dash', () => {
    const path = written('installer.sh', sh);
    expect(spawnSync('bash', ['-n', path]).status).toBe(0);
    expect(spawnSync('dash', ['-n', path]).status).toBe(0);
    const reporter = written('reporter.sh', heredoc(sh, 'REPORTER_END'));
    expect(spawnSync('dash', ['-n', reporter]).status).toBe(0);
  });

  it.skipIf(!hasShellcheck)('passes ShellCheck as POSIX sh, the reporter it installs too', () => {
    const installer = written('installer-sc.sh', sh);
    const reporter = written('reporter-sc.sh', heredoc(sh, 'REPORTER_END'));
    for (const path of [installer, reporter]) {
      const result = spawnSync('shellcheck', ['-s', 'sh', '-f', 'gcc', path], { encoding: 'utf8' });
      expect(result.stdout + result.stderr, path).toBe('');
      expect(result.status).toBe(0);
    }
  });

  it('carries the customer’s values quoted so the shell reads them back exactly', () => {
    // The installer's own settings, at its top (the reporter it carries has its own, empty, further down).
    const assignments = sh.split('\n').filter((line) => /^(PRODUCT_NAME|API_BASE|ENROLLMENT_SECRET|CUSTOMER_EMAIL|CLIENT_DOMAIN)=/.test(line)).slice(0, 5);
    expect(assignments.map((line) => line.split('=')[0])).toEqual(['PRODUCT_NAME', 'API_BASE', 'ENROLLMENT_SECRET', 'CUSTOMER_EMAIL', 'CLIENT_DOMAIN']);
    // Only assignments of quoted literals are evaluated here: nothing of the installer runs.
    const echoed = execFileSync('dash', ['-c', `${assignments.join('\n')}\nprintf '%s\\n' "$PRODUCT_NAME" "$API_BASE" "$ENROLLMENT_SECRET" "$CUSTOMER_EMAIL" "$CLIENT_DOMAIN"`], { encoding: 'utf8' });
    expect(echoed.split('\n').slice(0, 5)).toEqual([settings.productName, settings.apiBase, settings.enrollmentSecret, settings.customerEmail, settings.clientDomain]);
    expect(shQuote("it's")).toBe(`'it'\\''s'`);
  });

  it('runs the spec’s steps in order, with the platform’s package from the osquery package host and the spec’s timeouts', () => {
    const steps = ['admin-check', 'download', 'install', 'configure', 'validate', 'register'].map((step) => sh.indexOf(`step ${step} `));
    expect(steps.every((index) => index > 0)).toBe(true);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(sh).toContain('if [ "$(id -u)" -ne 0 ]; then');
    for (const url of [
      'https://pkg.osquery.io/darwin/osquery-$OSQUERY_VERSION.pkg',
      'https://pkg.osquery.io/deb/osquery_$OSQUERY_VERSION-1.linux_amd64.deb',
      'https://pkg.osquery.io/deb/osquery_$OSQUERY_VERSION-1.linux_arm64.deb',
      'https://pkg.osquery.io/rpm/osquery-$OSQUERY_VERSION-1.linux.x86_64.rpm',
      'https://pkg.osquery.io/rpm/osquery-$OSQUERY_VERSION-1.linux.aarch64.rpm',
    ]) expect(sh).toContain(url);
    expect(sh).toContain("OSQUERY_VERSION='5.10.2'");
    expect(sh).toMatch(/curl -sS --max-time 10 [^\n]*\n[^\n]*\/api\/agents\/telemetry/);
    const reporter = heredoc(sh, 'REPORTER_END');
    expect(reporter).toMatch(/curl -sS --max-time 30 [^\n]*\n[^\n]*\n[^\n]*\/api\/agents\/registrations/);
    expect(reporter).toContain('"$API_BASE/api/agents/reports"');
    // Every 5 minutes: systemd timer, cron or launchd.
    expect(sh).toContain('OnUnitActiveSec=5min');
    expect(sh).toContain("printf '*/5 * * * * root /bin/sh %s/reporter.sh");
    expect(sh).toContain('<key>StartInterval</key><integer>300</integer>');
  });

  it('sends a failure telemetry with its step before exiting on the root check, and names the step in every message', () => {
    const check = sh.slice(sh.indexOf('if [ "$(id -u)" -ne 0 ]; then'));
    const block = check.slice(0, check.indexOf('\nfi\n'));
    // The root check calls fail with the step id; fail sends the telemetry (install_step = the step), then exits.
    expect(block).toMatch(/\n {2}fail admin-check 'Administrator privileges required\. [^'\n]+'$/);
    expect(block).not.toContain('exit');
    const fail = sh.slice(sh.indexOf('fail() {'), sh.indexOf('\n}\n', sh.indexOf('fail() {')));
    expect(fail.indexOf('telemetry failed "$2" "step=$1" "$1"')).toBeGreaterThan(0);
    expect(fail.indexOf('exit 1')).toBeGreaterThan(fail.indexOf('telemetry failed'));
    // The telemetry body carries install_step from its 4th argument, still with the 10 s timeout.
    const telemetry = sh.slice(sh.indexOf('telemetry() {'), sh.indexOf('\n}\n', sh.indexOf('telemetry() {')));
    expect(telemetry).toContain('"install_details":%s,"install_step":%s,"timestamp"');
    expect(telemetry).toContain('"$(json_string "$4")"');
    expect(telemetry).toContain('curl -sS --max-time 10 ');
    // The check comes before anything that needs root, and every telemetry call names a step.
    expect(sh.indexOf('fail admin-check')).toBeLessThan(sh.indexOf('telemetry started'));
    const calls = sh.split('\n').filter((line) => /^\s*telemetry (started|completed|failed) /.test(line));
    expect(calls.length).toBe(3);
    expect(calls.every((line) => /"\$1"$| admin-check$| register$/.test(line))).toBe(true);
    // Every fail names one of the six steps.
    const steps = new Set(['admin-check', 'download', 'install', 'configure', 'validate', 'register']);
    const named = [...sh.matchAll(/fail ([a-z-]+) /g)].map((match) => match[1]!);
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((step) => !steps.has(step))).toEqual([]);
  });

  it('writes an osquery.conf per platform with the spec’s intervals and a query for every payload field', () => {
    for (const [index, platform] of (['macos', 'linux'] as const).entries()) {
      const config = JSON.parse(heredoc(sh, 'OSQUERY_CONF_END', index)) as { schedule: Record<string, { query: string; interval: number; snapshot: boolean }> };
      expect(Object.keys(config.schedule).sort()).toEqual(Object.keys(agentReportResultsSchema.shape).sort());
      expect(config.schedule.system_info!.interval).toBe(3600);
      expect(config.schedule.high_resource_processes!.interval).toBe(300);
      expect(config.schedule.logged_in_users!.interval).toBe(3600);
      expect(config.schedule.listening_ports!.interval).toBe(600);
      expect(config.schedule.installed_packages!.query).toBe(PLATFORM_QUERIES[platform].installed_packages);
    }
  });
});

/**
 * A small PowerShell lexer: skips comments, single-quoted strings ('' escapes), double-quoted strings
 * and here-strings, and reports where brackets do not balance or a string never closes.
 */
function powershellProblems(source: string): string[] {
  const problems: string[] = [];
  const stack: { char: string; line: number }[] = [];
  const pairs: Record<string, string> = { ')': '(', '}': '{', ']': '[' };
  let line = 1;
  let i = 0;
  const at = (offset = 0) => source[i + offset] ?? '';
  while (i < source.length) {
    const c = at();
    if (c === '\n') line += 1;
    if (c === '<' && at(1) === '#') {
      const end = source.indexOf('#>', i + 2);
      if (end < 0) return [...problems, `block comment from line ${line} never ends`];
      line += source.slice(i, end).split('\n').length - 1;
      i = end + 2;
    } else if (c === '#') {
      while (i < source.length && at() !== '\n') i += 1;
    } else if (c === '@' && (at(1) === "'" || at(1) === '"') && (at(2) === '\n' || (at(2) === '\r' && at(3) === '\n'))) {
      const terminator = `\n${at(1)}@`;
      const end = source.indexOf(terminator, i + 2);
      if (end < 0) return [...problems, `here-string from line ${line} never ends`];
      line += source.slice(i, end + 1).split('\n').length - 1;
      i = end + terminator.length;
    } else if (c === "'") {
      let j = i + 1;
      for (;;) {
        if (j >= source.length) return [...problems, `string from line ${line} never ends`];
        if (source[j] === "'" && source[j + 1] === "'") j += 2;
        else if (source[j] === "'") break;
        else j += 1;
      }
      line += source.slice(i, j).split('\n').length - 1;
      i = j + 1;
    } else if (c === '"') {
      const end = source.indexOf('"', i + 1);
      if (end < 0) return [...problems, `string from line ${line} never ends`];
      if (source.slice(i, end).includes('\n')) problems.push(`double-quoted string over several lines at line ${line}`);
      i = end + 1;
    } else {
      if (c === '(' || c === '{' || c === '[') stack.push({ char: c, line });
      else if (c in pairs) {
        const open = stack.pop();
        if (open?.char !== pairs[c]) problems.push(`'${c}' at line ${line} closes ${open ? `'${open.char}' from line ${open.line}` : 'nothing'}`);
      }
      i += 1;
    }
  }
  for (const open of stack) problems.push(`'${open.char}' from line ${open.line} never closes`);
  return problems;
}

describe('the Windows installer (.bat with PowerShell inside)', () => {
  const text = bat.replace(/\r\n/g, '\n');
  const marker = text.indexOf('\n#POWERSHELL\n');
  const powershell = text.slice(marker + 1);
  const reporter = powershell.split("$ReporterScript = @'\n")[1]!.split("\n'@\n")[0]!;

  it('is a batch file with CRLF line ends that hands the part after #POWERSHELL to PowerShell, passing its options', () => {
    expect(bat.startsWith('@echo off\r\n')).toBe(true);
    expect(/[^\r]\n/.test(bat)).toBe(false);
    const header = text.slice(0, marker);
    expect(header).toContain('set "AGENT_INSTALLER_ARGS=%*"');
    expect(header).toContain("powershell.exe -NoProfile -ExecutionPolicy Bypass -Command \"$s = [IO.File]::ReadAllText($env:AGENT_INSTALLER_PATH); $m = '#' + 'POWERSHELL';");
    expect(header.trimEnd().endsWith('exit /b %ERRORLEVEL%')).toBe(true);
    // The marker the header looks for is written split in two, so its first whole occurrence is the real one.
    expect(text.split('\n').filter((l) => l === '#POWERSHELL')).toHaveLength(1);
    expect(header).not.toContain('#POWERSHELL');
  });

  it('lexes as PowerShell: brackets balance, every string and here-string closes, the reporter too', () => {
    expect(powershellProblems(powershell)).toEqual([]);
    expect(powershellProblems(reporter)).toEqual([]);
    // The reporter is embedded in a single-quoted here-string: no line of it may end that string early.
    expect(reporter.split('\n').some((l) => l.startsWith("'@"))).toBe(false);
    expect(powershellProblems("if ($a) { 'x' ")).toEqual(["'{' from line 1 never closes"]);
    expect(powershellProblems("$a = 'it''s")).toEqual(['string from line 1 never ends']);
  });

  it('runs the spec’s steps in order with its admin message, the official MSI, its timeouts and error messages', () => {
    const steps = ['admin-check', 'download', 'install', 'configure', 'validate', 'register'].map((step) => powershell.indexOf(`Write-Step '${step}'`));
    expect(steps.every((index) => index > 0)).toBe(true);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(powershell).toContain("Write-Host 'Administrator privileges required. Please run PowerShell as Administrator and try again.' -ForegroundColor Red");
    expect(OSQUERY_MSI_URL).toBe('https://pkg.osquery.io/windows/osquery-5.10.2.msi');
    expect(powershell).toContain(`$MsiUrl = '${OSQUERY_MSI_URL}'`);
    expect(powershell).toContain("Start-Process -FilePath 'msiexec.exe'");
    expect(powershell).toContain("if ($process.ExitCode -ne 0) {\n  Stop-Installation 'install' ('MSI installation failed with exit code ' + $process.ExitCode)");
    expect(powershell).toContain("Stop-Installation 'download' ('Download failed: ' + $_.Exception.Message)");
    expect(powershell).toContain("Stop-Installation 'install' ('osquery executable not found: ' + $osqueryi)");
    expect(powershell).toContain("Write-Warning 'Registration failed.");
    expect(powershell).toMatch(/\/api\/agents\/telemetry'\)[^\n]*-TimeoutSec 10/);
    expect(reporter).toContain("Send-Json '/api/agents/registrations' $Settings.enrollment_secret $registration 30");
    expect(reporter).toContain("Send-Json '/api/agents/reports' $Settings.agent_token $report 60");
    expect(powershell).toContain('/SC MINUTE /MO 5 /RU SYSTEM');
    expect(powershell).toContain("Write-Host 'Installation Failed' -ForegroundColor Red");
  });

  it('sends a failure telemetry with step admin-check and the spec’s admin message before exiting on the admin check', () => {
    const check = powershell.slice(powershell.indexOf('if (-not $principal.IsInRole('));
    const block = check.slice(0, check.indexOf('\n}\n'));
    const admin = 'Administrator privileges required. Please run PowerShell as Administrator and try again.';
    const sent = block.indexOf(`Send-Telemetry 'failed' '${admin}' 'step=admin-check' 'admin-check'`);
    expect(sent).toBeGreaterThan(block.indexOf(`Write-Host '${admin}'`));
    expect(block.indexOf('exit 1')).toBeGreaterThan(sent);
    // Send-Telemetry takes the step and puts it in the body as install_step, with the 10 s timeout.
    const send = powershell.slice(powershell.indexOf('function Send-Telemetry('), powershell.indexOf('function Stop-Installation'));
    expect(send).toContain('function Send-Telemetry([string]$Status, [string]$Message, [string]$Details, [string]$Step) {');
    expect(send).toContain('    install_step = $Step\n');
    expect(send).toMatch(/-TimeoutSec 10/);
    expect(powershell).toContain("Send-Telemetry 'failed' $Message ('step=' + $Step) $Step\n  exit 1");
    // Every Send-Telemetry call names a step; every Stop-Installation one of the six.
    const calls = powershell.split('\n').filter((line) => /^\s*Send-Telemetry '/.test(line));
    expect(calls.length).toBe(4);
    expect(calls.every((line) => / ('(admin-check|register)'|\$Step)$/.test(line))).toBe(true);
    const steps = new Set(['admin-check', 'download', 'install', 'configure', 'validate', 'register']);
    const named = [...powershell.matchAll(/Stop-Installation '([a-z-]+)'/g)].map((match) => match[1]!);
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((step) => !steps.has(step))).toEqual([]);
  });

  it('carries the customer’s values as PowerShell literals, quotes doubled', () => {
    expect(powershell).toContain(`$EnrollmentSecret = '${settings.enrollmentSecret}'`);
    expect(powershell).toContain("$CustomerEmail = 'o''brien+it@shop.example.com'");
    expect(powershell).toContain("$ProductName = 'O''Reilly Shield'");
    expect(powershell).toContain("$ClientDomain = 'shop.example.com'");
    expect(psQuote('a’b')).toBe("'a''b'");
  });

  it('writes an osquery.conf with the spec’s intervals, and the reporter sends every payload field', () => {
    const config = JSON.parse(powershell.split("$OsqueryConfig = @'\n")[1]!.split("\n'@\n")[0]!) as { schedule: Record<string, { interval: number }> };
    expect(Object.fromEntries(['system_info', 'high_resource_processes', 'logged_in_users', 'listening_ports'].map((k) => [k, config.schedule[k]!.interval]))).toEqual({
      system_info: 3600,
      high_resource_processes: 300,
      logged_in_users: 3600,
      listening_ports: 600,
    });
    for (const field of Object.keys(agentReportResultsSchema.shape)) expect(reporter).toContain(`  ${field} = '`);
  });
});

describe('queries', () => {
  it('exist for every payload field on every platform', () => {
    for (const platform of agentPlatforms) expect(Object.keys(PLATFORM_QUERIES[platform]).sort()).toEqual(Object.keys(agentReportResultsSchema.shape).sort());
  });
});
