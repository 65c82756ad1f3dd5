#!/bin/sh
# Runs INSIDE the lab VM (see README.md in the folder above for the vng command).
# Starts one hostapd per config on its own mac80211_hwsim radio, records the air on
# hwsim0, scans from the last radio and dumps the kernel's scan results raw.
# usage: capture.sh OUTDIR
set -u
here=$(dirname "$0")
out=$1
mkdir -p "$out" /run/lab
modprobe mac80211_hwsim radios=14
sleep 1
ip link set hwsim0 up
for conf in "$here"/hostapd/*.conf; do
    name=$(basename "$conf" .conf)
    hostapd -B -P "/run/lab/$name.pid" -f "/run/lab/$name.log" "$conf" \
        || { echo "hostapd failed for $name:"; cat "/run/lab/$name.log"; }
done
sleep 3
tcpdump -i hwsim0 -s 0 -w "$out/beacons.pcap" 'type mgt subtype beacon' &
dump=$!
sleep 2
kill $dump
ip link set wlan13 up
# A hidden AP ignores wildcard probes, so only its beacon can be heard, and only
# when the scan dwells on its channel at the right moment: scan until all 14
# BSSes (13 radios, one with two BSSes) are in the kernel's table, at most 6 times.
for attempt in 1 2 3 4 5 6; do
    iw dev wlan13 scan > "$out/iw-scan.txt" 2>&1 || { echo "scan failed"; cat "$out/iw-scan.txt"; }
    seen=$(grep -c '^BSS' "$out/iw-scan.txt")
    echo "scan $attempt: $seen BSSes"
    [ "$seen" -ge 14 ] && break
done
/usr/bin/python3 "$here/nl80211_get_scan.py" wlan13 "$out/get-scan-wlan13.nlmsg"
grep -H . /run/lab/*.log | grep -i "fail\|error\|invalid" || true
wait
