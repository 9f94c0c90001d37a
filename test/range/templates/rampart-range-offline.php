<?php
/*
 * Plugin Name: Rampart range offline
 * Description: Every HTTP request WordPress would make (update checks, permalink tests, pingbacks,
 * requests to its own host name) fails at once, so the range never resolves a name or leaves loopback.
 */
add_filter('pre_http_request', function () {
    return new WP_Error('rampart_range_offline', 'The Rampart scan range makes no outbound requests');
}, 0);
