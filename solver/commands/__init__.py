"""The command line: one package per game area, each saying in its ``__init__`` which commands
it has (``register(app)``), beside the modules every command shares (errors, options, inputs,
output, progress, tables, the batch body, default-command groups, the ``--plot`` checks).
Heavy imports stay inside the commands that need them."""
