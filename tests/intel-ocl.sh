#!/bin/sh
# Runs a test program on Intel's CPU OpenCL runtime alone: the vendors folder
# in OCL_ICD_VENDORS (tests/meson.build), which tools/setup.sh writes, lists
# that runtime only. Where it is not there, the test is skipped (77).
icd=$OCL_ICD_VENDORS/intel.icd
lib=$(cat "$icd" 2>/dev/null)
if [ -z "$lib" ] || [ ! -f "$lib" ]; then
  echo "SKIP: no Intel CPU OpenCL runtime (no $icd, or the library it" \
    "names is gone): tools/setup.sh installs it from PyPI" >&2
  exit 77
fi
exec "$@"
