#!/bin/sh
# Hostile pipe adapters, one per mode ($1), each answering well-formed lines in the wrong way:
#   twice   answers every request twice (all-zero words, the right token count), both lines in one
#           write(2): the runner finds the second in its buffer as it reads the first, however
#           the machine schedules the two processes (two echos let a loaded runner read the first
#           line, then take the second, arriving later, for the next request's answer)
#   twice-late  answers every request twice in two writes 0.3 s apart: the second answer comes
#           after the runner has sent the next request and is read as its answer
#   escape  names itself, errors and writes stderr with terminal escape sequences (clear screen)
#   hello2  answers hello twice, then answers requests normally
#   stall   writes its pid (its process group) to file $2, answers hello, then stalls on the first
#           request, as a hung adapter would
#   flood   answers the first request with bytes and no newline, without end
#   garbage answers every request with a line that is no answer, an escape sequence in it
#   die     exits with status 3 on the first line after hello
#   upper   answers every word with uppercase hex (7FC00000), which runners/PIPE.md forbids
#   escape-session  starts a daemon in a session of its own (setsid), writes its pid to file $2,
#           then answers every word with zeros
#   spin-session  as escape-session, but the daemon spins (busy loop) and appends its pid to $2
#   chatty  writes 2 MB of stderr before each answer (all-zero words), and answers hello properly
mode=$1
esc=$(printf '\033')
[ "$mode" = stall ] && echo $$ > "$2"
if [ "$mode" = escape-session ]; then
  setsid sleep 600 </dev/null >/dev/null 2>&1 &
  echo $! > "$2"
fi
if [ "$mode" = spin-session ]; then
  # setsid(1) execs in place here (a background job of a non-interactive shell leads no group): $! is the spinner
  setsid sh -c 'while :; do :; done' </dev/null >/dev/null 2>&1 &
  echo $! >> "$2"
fi
read -r hello
case $mode in
  hello2) printf 'ok hello2 1\nok hello2 1\n' ;;  # one write: both lines reach the runner together
  escape) echo "ok ${esc}[2Jevil 1${esc}]0;title"; printf '%s[2J%s[31mred stderr\n' "$esc" "$esc" >&2 ;;
  *) echo "ok $mode 1" ;;
esac
while read -r line; do
  [ "$mode" = stall ] && exec sleep 600
  [ "$mode" = flood ] && { yes x | tr -d '\n'; exit; }
  [ "$mode" = die ] && exit 3
  if [ "$mode" = chatty ]; then
    case $line in hello*) echo "ok chatty 1"; continue ;; esac  # the runner's check between suites
    head -c 2000000 /dev/zero | tr '\0' e >&2
  fi
  set -- $line
  shift 2
  out=ok
  for w in "$@"; do
    if [ "$mode" = upper ]; then out="$out 7FC00000"; else out="$out 00000000"; fi
  done
  case $mode in
    twice) printf '%s\n%s\n' "$out" "$out" | dd bs=4M iflag=fullblock status=none ;;
    twice-late) echo "$out"; sleep 0.3; echo "$out" ;;
    escape) echo "error ${esc}[2Jcleared ${esc}[1;1Hscreen" ;;
    garbage) echo "${esc}[2Jgarbage" ;;
    *) echo "$out" ;;
  esac
done
