// render types: being written.
