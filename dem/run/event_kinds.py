"""The kinds of event a run finds in its history rows and may stop on (dem.run.events finds them), named where
the command line and the run options can read them without loading the kernel toolchain."""

KINDS = ("overturn", "left_domain", "sliding")
