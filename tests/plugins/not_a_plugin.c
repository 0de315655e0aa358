/* not_a_plugin.c - a shared module without gale_plugin_entry (plugin_load.c must
 * refuse it as "not a gale plugin"). */
__attribute__((visibility("default"))) int some_other_entry(void) { return 7; }
