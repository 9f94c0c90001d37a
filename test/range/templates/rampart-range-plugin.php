<?php
/*
 * Plugin Name: Rampart range plugin asset
 * Description: Issue 20's plant: the stylesheet of the plugin {{PLUGIN_SLUG}} (installed in
 * wp-content/plugins, at the vulnerable version {{PLUGIN_VERSION}}) is loaded on every page with
 * ?ver={{PLUGIN_VERSION}}, as the plugin itself enqueues it, so even a passive scan sees the version.
 */
add_action('wp_enqueue_scripts', function () {
    wp_enqueue_style('{{PLUGIN_SLUG}}', plugins_url('{{PLUGIN_SLUG}}/{{PLUGIN_ASSET}}'), [], '{{PLUGIN_VERSION}}');
});
