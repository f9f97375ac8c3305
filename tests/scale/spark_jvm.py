"""The JVM options of the tests' Spark: the client compiler only, and one garbage-collector thread.

The tests' Spark runs short jobs on tiny data in a fresh JVM. The JVM's default optimising
compiler (C2) and its parallel collector's threads then cost more CPU than the jobs: on the
demo cluster's Spark ingest they were half of the JVM's CPU seconds (100 s of 105), and the
2-core CI pays for every one. The product keeps the JVM's defaults (long jobs on large runs
are what C2 pays off on).
"""

#: options for the driver JVM the tests start (their local mode runs the executors in it)
JVM_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
