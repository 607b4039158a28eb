"""The name of the function a module's statements become (syntax/validate.py makes it;
semantics/globals.py describes scripts). Its own module, with no imports, so the importer can
name it on a cache hit without loading the front end."""

# No source can spell it; CPython names a module's code `<module>` in tracebacks too.
SCRIPT = "<module>"
