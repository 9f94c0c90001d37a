/**
 * The Windows installer: a .bat that runs the PowerShell after its `#POWERSHELL` line (so it can be
 * double-clicked or run from cmd), and the reporter it installs. Placeholders `{{NAME}}` are filled by
 * installers.ts with quoted, escaped values. String.raw: backslashes are literal; no backticks and no
 * dollar-brace in the scripts (they would end or interpolate the template).
 */

export const WINDOWS_BATCH_HEADER = String.raw`@echo off
rem {{PRODUCT_COMMENT}} osquery agent installer for {{DOMAIN_COMMENT}} (Windows 10, Server 2016 or later; PowerShell 5.0+; 100 MB free disk).
rem Run as Administrator: right-click, Run as administrator; or from an elevated prompt:
rem   {{FILE_COMMENT}} [--client-domain example.com]
setlocal
set "AGENT_INSTALLER_ARGS=%*"
set "AGENT_INSTALLER_PATH=%~f0"
powershell.exe -NoProfile -ExecutionPolicy Bypass -Command "$s = [IO.File]::ReadAllText($env:AGENT_INSTALLER_PATH); $m = '#' + 'POWERSHELL'; & ([ScriptBlock]::Create($s.Substring($s.IndexOf($m))))"
exit /b %ERRORLEVEL%
`;

/** Steps in the spec's order (SPEC §4 "Agent install steps"): admin-check, download, install, configure, validate, register. */
export const WINDOWS_POWERSHELL = String.raw`#POWERSHELL
#Requires -Version 5.0
$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'
[Net.ServicePointManager]::SecurityProtocol = [Net.ServicePointManager]::SecurityProtocol -bor [Net.SecurityProtocolType]::Tls12

$ProductName = {{PRODUCT_NAME}}
$ApiBase = {{API_BASE}}
$EnrollmentSecret = {{ENROLLMENT_SECRET}}
$CustomerEmail = {{CUSTOMER_EMAIL}}
$ClientDomain = {{CLIENT_DOMAIN}}
$OsqueryVersion = {{OSQUERY_VERSION}}
$AgentVersion = {{AGENT_VERSION}}
$InstallerVersion = {{AGENT_VERSION}}
$MsiUrl = {{MSI_URL}}
$OsqueryDir = Join-Path $env:ProgramFiles 'osquery'
$AgentDir = Join-Path $env:ProgramData {{AGENT_DIR_NAME}}
$TaskName = {{TASK_NAME}}

# Options: --client-domain <domain> (one of the account's verified domains).
$Arguments = @()
if ($env:AGENT_INSTALLER_ARGS) { $Arguments = @($env:AGENT_INSTALLER_ARGS.Trim() -split '\s+' | Where-Object { $_ -ne '' }) }
for ($i = 0; $i -lt $Arguments.Count; $i++) {
  $argument = $Arguments[$i].Trim('"')
  if ($argument -eq '--client-domain' -and ($i + 1) -lt $Arguments.Count) { $i++; $ClientDomain = $Arguments[$i].Trim('"').ToLowerInvariant() }
  elseif ($argument -like '--client-domain=*') { $ClientDomain = $argument.Substring(16).ToLowerInvariant() }
  else { Write-Host ('Unknown option: ' + $argument) -ForegroundColor Red; exit 2 }
}
if ($ClientDomain -notmatch '^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$') {
  Write-Host ('Invalid client domain: ' + $ClientDomain) -ForegroundColor Red
  exit 2
}

function Get-Timestamp { (Get-Date).ToUniversalTime().ToString("yyyy-MM-dd'T'HH:mm:ss'Z'", [Globalization.CultureInfo]::InvariantCulture) }
function Limit-Text([string]$Text, [int]$Length) { if ($Text.Length -gt $Length) { $Text.Substring(0, $Length) } else { $Text } }
function Write-Step([string]$Step, [string]$Message) { Write-Host ('[' + $Step + '] ' + $Message) }

function Get-OsVersion {
  try { $os = Get-CimInstance -ClassName Win32_OperatingSystem; return ($os.Caption + ' ' + $os.Version).Trim() } catch { return [Environment]::OSVersion.VersionString }
}

# Install telemetry (SPEC §7): best effort, 10 s timeout, never stops the installation.
# Needs no administrator rights. $Step: the step id the message is about (on 'failed', the failing step).
function Send-Telemetry([string]$Status, [string]$Message, [string]$Details, [string]$Step) {
  $body = @{
    customer_email = $CustomerEmail
    customer_domain = $ClientDomain
    hostname = $env:COMPUTERNAME
    os_version = (Limit-Text (Get-OsVersion) 255)
    install_status = $Status
    install_message = (Limit-Text $Message 1000)
    install_details = (Limit-Text $Details 4000)
    install_step = $Step
    timestamp = (Get-Timestamp)
    installer_version = $InstallerVersion
  } | ConvertTo-Json -Compress
  try {
    Invoke-RestMethod -Method Post -Uri ($ApiBase + '/api/agents/telemetry') -Headers @{ Authorization = ('Bearer ' + $EnrollmentSecret) } -ContentType 'application/json; charset=utf-8' -Body ([Text.Encoding]::UTF8.GetBytes($body)) -TimeoutSec 10 | Out-Null
  } catch {
    Write-Host ('Install telemetry was not sent: ' + $_.Exception.Message)
  }
}

function Stop-Installation([string]$Step, [string]$Message) {
  Write-Host ''
  Write-Host 'Installation Failed' -ForegroundColor Red
  Write-Host $Message -ForegroundColor Red
  Write-Host 'Troubleshooting: run as Administrator; check the internet connection; temporarily disable antivirus software that blocks installers; contact support.'
  Send-Telemetry 'failed' $Message ('step=' + $Step) $Step
  exit 1
}

# 1. admin-check
Write-Step 'admin-check' 'Checking administrator privileges'
$principal = New-Object Security.Principal.WindowsPrincipal([Security.Principal.WindowsIdentity]::GetCurrent())
if (-not $principal.IsInRole([Security.Principal.WindowsBuiltInRole]::Administrator)) {
  Write-Host 'Administrator privileges required. Please run PowerShell as Administrator and try again.' -ForegroundColor Red
  # The telemetry POST needs no administrator rights: the walkthrough shows this failure instead of waiting.
  Send-Telemetry 'failed' 'Administrator privileges required. Please run PowerShell as Administrator and try again.' 'step=admin-check' 'admin-check'
  exit 1
}
Send-Telemetry 'started' ('Installing osquery ' + $OsqueryVersion + ' and the ' + $ProductName + ' agent ' + $AgentVersion) ('domain=' + $ClientDomain) 'admin-check'

# 2. download: the official osquery MSI from the osquery project's package host.
Write-Step 'download' ('Downloading ' + $MsiUrl)
$msi = Join-Path $env:TEMP ('osquery-' + $OsqueryVersion + '.msi')
try {
  Invoke-WebRequest -Uri $MsiUrl -OutFile $msi -UseBasicParsing -TimeoutSec 600
} catch {
  Stop-Installation 'download' ('Download failed: ' + $_.Exception.Message)
}
$signature = Get-AuthenticodeSignature -FilePath $msi
if ($signature.Status -eq 'HashMismatch' -or $signature.Status -eq 'NotTrusted') {
  Stop-Installation 'download' ('The downloaded package is not intact (signature ' + $signature.Status + ').')
}

# 3. install
Write-Step 'install' 'Installing osquery'
$process = Start-Process -FilePath 'msiexec.exe' -ArgumentList @('/i', ([char]34 + $msi + [char]34), '/qn', '/norestart') -Wait -PassThru
if ($process.ExitCode -ne 0) {
  Stop-Installation 'install' ('MSI installation failed with exit code ' + $process.ExitCode)
}
$osqueryi = Join-Path $OsqueryDir 'osqueryi.exe'
if (-not (Test-Path -LiteralPath $osqueryi)) {
  Stop-Installation 'install' ('osquery executable not found: ' + $osqueryi)
}

# 4. configure: osquery's schedule, the agent's settings (enrollment secret; readable by SYSTEM and Administrators only), the reporter.
Write-Step 'configure' 'Writing the osquery configuration and the agent settings'
$OsqueryConfig = @'
{{OSQUERY_CONFIG}}
'@
$ReporterScript = @'
{{REPORTER}}
'@
try {
  Set-Content -LiteralPath (Join-Path $OsqueryDir 'osquery.conf') -Value $OsqueryConfig -Encoding ASCII
  New-Item -ItemType Directory -Force -Path $AgentDir | Out-Null
  & icacls.exe $AgentDir /inheritance:r /grant:r '*S-1-5-18:(OI)(CI)F' '*S-1-5-32-544:(OI)(CI)F' | Out-Null
  $settingsPath = Join-Path $AgentDir 'agent.json'
  $previous = $null
  if (Test-Path -LiteralPath $settingsPath) { $previous = Get-Content -Raw -LiteralPath $settingsPath | ConvertFrom-Json }
  $settings = [ordered]@{
    api_base = $ApiBase
    enrollment_secret = $EnrollmentSecret
    customer_email = $CustomerEmail
    client_domain = $ClientDomain
    agent_id = ''
    agent_token = ''
  }
  # A reinstall for the same domain keeps the agent's identity.
  if ($previous -and $previous.client_domain -eq $ClientDomain -and $previous.agent_token) { $settings.agent_id = $previous.agent_id; $settings.agent_token = $previous.agent_token }
  $settings | ConvertTo-Json | Set-Content -LiteralPath $settingsPath -Encoding ASCII
  $reporterPath = Join-Path $AgentDir 'reporter.ps1'
  Set-Content -LiteralPath $reporterPath -Value $ReporterScript -Encoding ASCII
  $service = Get-Service -Name 'osqueryd' -ErrorAction SilentlyContinue
  if ($service) { Set-Service -Name 'osqueryd' -StartupType Automatic; Restart-Service -Name 'osqueryd' -Force }
} catch {
  Stop-Installation 'configure' ('Configuration failed: ' + $_.Exception.Message)
}

# 5. validate
Write-Step 'validate' 'Checking that osquery answers'
$answer = (& $osqueryi --json 'SELECT version FROM osquery_info' 2>$null | Out-String)
if ($answer -notmatch '"version"') {
  Stop-Installation 'validate' 'osquery did not answer a test query.'
}

# 6. register (30 s timeout): a failure is a warning only; the reporter registers at its next run.
Write-Step 'register' 'Registering this computer'
& powershell.exe -NoProfile -ExecutionPolicy Bypass -File $reporterPath -RegisterOnly
if ($LASTEXITCODE -ne 0) {
  Write-Warning 'Registration failed. The reporter will try again at its next run (every 5 minutes).'
}

# The reporter: every 5 minutes (the processes interval), as SYSTEM.
$taskCommand = 'powershell.exe -NoProfile -ExecutionPolicy Bypass -File ' + [char]34 + $reporterPath + [char]34
& schtasks.exe /Create /F /TN $TaskName /SC MINUTE /MO 5 /RU SYSTEM /RL HIGHEST /TR $taskCommand | Out-Null
if ($LASTEXITCODE -ne 0) {
  Stop-Installation 'register' 'The scheduled task for the reporter could not be created.'
}
& schtasks.exe /Run /TN $TaskName | Out-Null

Send-Telemetry 'completed' 'osquery agent installed' ('osquery ' + $OsqueryVersion + ', agent ' + $AgentVersion) 'register'
Write-Host ''
Write-Host ('Installed. ' + $ProductName + ' receives this computer''s first report within 5 minutes.') -ForegroundColor Green
exit 0
`;

/**
 * reporter.ps1: registers when it has no agent token, then sends one report (SPEC §3 payload). Runs
 * from the scheduled task every 5 minutes. No here-strings inside: it is embedded in one.
 */
export const WINDOWS_REPORTER = String.raw`param([switch]$RegisterOnly)
$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'
[Net.ServicePointManager]::SecurityProtocol = [Net.ServicePointManager]::SecurityProtocol -bor [Net.SecurityProtocolType]::Tls12
$AgentVersion = {{AGENT_VERSION}}
$AgentDir = Split-Path -Parent $MyInvocation.MyCommand.Path
$SettingsPath = Join-Path $AgentDir 'agent.json'
$LogPath = Join-Path $AgentDir 'reporter.log'
$Osqueryi = Join-Path $env:ProgramFiles 'osquery\osqueryi.exe'
$Settings = Get-Content -Raw -LiteralPath $SettingsPath | ConvertFrom-Json

function Write-Log([string]$Message) {
  if ((Test-Path -LiteralPath $LogPath) -and (Get-Item -LiteralPath $LogPath).Length -gt 1MB) { Remove-Item -LiteralPath $LogPath -Force }
  Add-Content -LiteralPath $LogPath -Value ((Get-Date).ToUniversalTime().ToString('s') + 'Z ' + $Message)
}
function Get-Timestamp { (Get-Date).ToUniversalTime().ToString("yyyy-MM-dd'T'HH:mm:ss'Z'", [Globalization.CultureInfo]::InvariantCulture) }
function Save-Settings { $Settings | ConvertTo-Json | Set-Content -LiteralPath $SettingsPath -Encoding ASCII }
function Get-StatusCode($ErrorRecord) { try { return [int]$ErrorRecord.Exception.Response.StatusCode } catch { return 0 } }

# osqueryi's JSON rows as an array, always (one row or none included).
function Invoke-Osquery([string]$Sql) {
  $output = (& $Osqueryi --json $Sql 2>$null | Out-String)
  if (-not $output.Trim()) { return ,@() }
  $parsed = ConvertFrom-Json $output
  return ,@($parsed | ForEach-Object { $_ })
}

function Send-Json([string]$Path, [string]$Bearer, $Body, [int]$TimeoutSec) {
  $json = $Body | ConvertTo-Json -Depth 8 -Compress
  return Invoke-RestMethod -Method Post -Uri ($Settings.api_base + $Path) -Headers @{ Authorization = ('Bearer ' + $Bearer) } -ContentType 'application/json; charset=utf-8' -Body ([Text.Encoding]::UTF8.GetBytes($json)) -TimeoutSec $TimeoutSec
}

$Queries = [ordered]@{
{{QUERIES}}
}

# Registers when it has no token, and again on a reinstall (-RegisterOnly), then showing its current
# token: the enrollment secret alone enrols only new machines.
if ((-not $Settings.agent_token) -or $RegisterOnly) {
  $osqueryVersion = (Invoke-Osquery 'SELECT version FROM osquery_info')[0].version
  $registration = [ordered]@{
    email = $Settings.customer_email
    domain = $Settings.client_domain
    hostname = $env:COMPUTERNAME
    os = 'windows'
    osquery_version = $osqueryVersion
    agent_version = $AgentVersion
    timestamp = (Get-Timestamp)
  }
  if ($Settings.agent_token) { $registration['agent_token'] = $Settings.agent_token }
  try {
    $registered = Send-Json '/api/agents/registrations' $Settings.enrollment_secret $registration 30
  } catch {
    Write-Log ('Registration failed: ' + $_.Exception.Message)
    Write-Host ('Registration failed: ' + $_.Exception.Message)
    exit 1
  }
  $Settings.agent_id = $registered.agent_id
  $Settings.agent_token = $registered.agent_token
  Save-Settings
  Write-Log ('Registered as ' + $registered.agent_id)
  Write-Host ('Registered as ' + $registered.agent_id)
}
if ($RegisterOnly) { exit 0 }

$results = [ordered]@{}
foreach ($field in $Queries.Keys) {
  if ($field -ne 'encryption_status') { $results[$field] = Invoke-Osquery $Queries[$field] }
}
$encryption = Invoke-Osquery $Queries['encryption_status']
$encrypted = ($encryption.Count -gt 0 -and $encryption[0].enabled -eq 'true')
$results['encryption_status'] = [ordered]@{ enabled = $encrypted; type = $(if ($encrypted) { 'BitLocker' } else { 'none' }) }

$report = [ordered]@{
  client_domain = $Settings.client_domain
  agent_id = $Settings.agent_id
  timestamp = (Get-Timestamp)
  # The Unix time: each report (5 minutes apart) carries a greater sequence, so a replay is refused.
  sequence = [DateTimeOffset]::UtcNow.ToUnixTimeSeconds()
  agent_version = $AgentVersion
  platform = 'windows'
  results = $results
}
try {
  Send-Json '/api/agents/reports' $Settings.agent_token $report 60 | Out-Null
  Write-Log 'Report sent'
} catch {
  $status = Get-StatusCode $_
  Write-Log ('Report failed (' + $status + '): ' + $_.Exception.Message)
  # An unknown or replaced token: register again at the next run.
  if ($status -eq 401) { $Settings.agent_token = ''; Save-Settings }
  exit 1
}
`;
