<?php
/*
 * Rampart scan range: WordPress 6.1.9 (Debian's package, copied) on {{APACHE_ADDR}}.
 * Debian's own wp-config.php expects /etc/wordpress/config-HOST.php; the range writes this one.
 */
define('DB_NAME', 'wordpress');
define('DB_USER', 'wordpress');
define('DB_PASSWORD', '{{DB_PASSWORD}}');
define('DB_HOST', 'localhost:{{DIR}}/mariadb/mysqld.sock');
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');

define('AUTH_KEY', 'rampart-range-auth-key');
define('SECURE_AUTH_KEY', 'rampart-range-secure-auth-key');
define('LOGGED_IN_KEY', 'rampart-range-logged-in-key');
define('NONCE_KEY', 'rampart-range-nonce-key');
define('AUTH_SALT', 'rampart-range-auth-salt');
define('SECURE_AUTH_SALT', 'rampart-range-secure-auth-salt');
define('LOGGED_IN_SALT', 'rampart-range-logged-in-salt');
define('NONCE_SALT', 'rampart-range-nonce-salt');

$table_prefix = 'wp_';

// Home follows the request (scheme and host), or https requests redirect to the http port.
$rampart_scheme = (!empty($_SERVER['HTTPS']) && $_SERVER['HTTPS'] !== 'off') ? 'https' : 'http';
$rampart_host = preg_replace('/[^A-Za-z0-9.:\[\]-]/', '', $_SERVER['HTTP_HOST'] ?? 'wp.example.test');
define('WP_HOME', $rampart_scheme . '://' . $rampart_host);
define('WP_SITEURL', $rampart_scheme . '://' . $rampart_host);

// The range makes no outbound requests and no DNS queries: no cron, no updates (see also
// mu-plugins/rampart-range-offline.php).
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_AUTO_UPDATE_CORE', false);
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('WP_DEBUG', false);

if (!defined('ABSPATH')) {
    define('ABSPATH', __DIR__ . '/');
}
require_once ABSPATH . 'wp-settings.php';
