// hashline types: being written.
