"""The engine: the project, rule declarations and plugins, configuration, suppressions, the run and its result cache."""
