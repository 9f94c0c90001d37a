/**
 * Common subdomain names, tried against every domain: the hosts most often found in public
 * enumeration lists (mail and remote access, development and staging, admin panels, CI and code
 * hosting, shops and blogs). Kept short so a scan stays within seconds.
 */
export const SUBDOMAIN_WORDLIST = [
  'www', 'mail', 'webmail', 'smtp', 'pop', 'imap', 'mx', 'ns1', 'ns2', 'autodiscover', 'autoconfig', 'owa', 'exchange', 'lync',
  'vpn', 'remote', 'rdp', 'citrix', 'gateway', 'portal', 'extranet', 'intranet', 'internal', 'secure', 'login', 'sso', 'auth', 'id',
  'admin', 'administrator', 'cpanel', 'whm', 'plesk', 'webdisk', 'panel', 'manage', 'dashboard',
  'api', 'app', 'apps', 'm', 'mobile', 'graphql',
  'dev', 'development', 'staging', 'stage', 'stg', 'test', 'testing', 'qa', 'uat', 'sandbox', 'demo', 'beta', 'alpha', 'preprod', 'pre-prod', 'prod',
  'legacy', 'old', 'new', 'backup', 'bak', 'archive',
  'git', 'gitlab', 'svn', 'jenkins', 'ci', 'build', 'jira', 'confluence', 'wiki', 'docs', 'help', 'support', 'status',
  'monitor', 'grafana', 'kibana', 'prometheus', 'elastic', 'db', 'mysql', 'sql', 'phpmyadmin', 'pma',
  'shop', 'store', 'blog', 'news', 'cdn', 'static', 'assets', 'img', 'images', 'media', 'files', 'download', 'ftp', 'sftp', 'cloud',
  'crm', 'erp', 'hr', 'billing', 'pay', 'wp', 'wordpress', 'forum', 'community', 'events', 'careers', 'partners',
] as const;
