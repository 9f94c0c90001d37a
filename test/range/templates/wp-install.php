<?php
/*
 * Installs the range's WordPress from PHP CLI (wp_install), then adds an editor, so the REST API's
 * user listing (/?rest_route=/wp/v2/users) has names to leak. Run from the WordPress folder.
 */
$_SERVER['HTTP_HOST'] = 'wp.example.test';
$_SERVER['REQUEST_URI'] = '/';
$_SERVER['SERVER_PROTOCOL'] = 'HTTP/1.1';
define('WP_INSTALLING', true);
require getcwd() . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';

if (is_blog_installed()) {
    echo "already installed\n";
    exit(0);
}
$result = wp_install('Example Test Shop', 'admin', 'admin@example.test', true, '', '{{WP_ADMIN_PASSWORD}}');
if (is_wp_error($result)) {
    fwrite(STDERR, $result->get_error_message() . "\n");
    exit(1);
}
$editor = wp_insert_user([
    'user_login' => 'editor',
    'user_pass' => '{{WP_ADMIN_PASSWORD}}',
    'user_email' => 'editor@example.test',
    'display_name' => 'Eddie Editor',
    'role' => 'editor',
]);
if (is_wp_error($editor)) {
    fwrite(STDERR, $editor->get_error_message() . "\n");
    exit(1);
}
// The REST API lists only users who have published something.
wp_insert_post(['post_title' => 'Opening hours', 'post_content' => 'Open 9 to 5.', 'post_status' => 'publish', 'post_author' => $editor]);
echo "installed\n";
