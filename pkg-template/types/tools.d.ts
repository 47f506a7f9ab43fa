// tools types: being written.
