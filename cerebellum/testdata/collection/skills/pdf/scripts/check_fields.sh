#!/bin/sh
echo "fields: name, date, signature"
