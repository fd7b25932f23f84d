// A shared library that is not a Jourdain plugin: it loads, but has neither
// jourdain_plugin_abi_version nor jourdain_plugin_register.
extern "C" __attribute__((visibility("default"))) int not_a_plugin_answer() { return 42; }
