#!/bin/sh
# Runs inside the lab VM (see README.md): records nl80211 events while a radio appears, scans,
# has a scan aborted, and loses an interface. Usage: capture-events.sh OUTDIR
set -eu
here=$(dirname "$0")
out=$1/nl80211-events.hex
modprobe cfg80211
python3 "$here/nl80211_events.py" "$out" &
while [ ! -e "$out.ready" ]; do sleep 0.1; done
modprobe mac80211_hwsim radios=2                      # NEW_INTERFACE wlan0, wlan1
sleep 1
ip link set wlan0 up
iw dev wlan0 scan freq 2412 > /dev/null               # TRIGGER_SCAN, NEW_SCAN_RESULTS
iw dev wlan0 scan trigger                             # TRIGGER_SCAN, then
ip link set wlan0 down                                # SCAN_ABORTED
sleep 1
iw dev wlan1 del                                      # DEL_INTERFACE
sleep 1
touch "$out.stop"
wait
uname -r > "$1/kernel.txt"
