#!/bin/sh
# A lying pipe adapter: answers hello properly, then one token to every request, whatever its size.
read -r hello
echo "ok liar 0.1"
while read -r line; do
  echo "ok 00000000"
done
