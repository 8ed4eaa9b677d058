#!/usr/bin/env python3
"""Fill a PDF form from a JSON file of field values (fixture)."""
import json, sys

def main(argv):
    if "--list" in argv:
        print("name\ttext")
        return 0
    src, values, dst = argv[1:4]
    with open(values) as f:
        json.load(f)
    print(f"filled {src} -> {dst}")
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv))
