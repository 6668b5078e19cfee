#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, for tests/slurm.rs: munged, slurmctld and slurmd
# from Debian's packages (munge, slurmctld, slurmd, slurm-client), all state, logs and sockets
# under DIR, ports chosen from this shell's pid, everything bound to loopback.
#   tests/slurm/cluster.sh start DIR   # prints the SLURM_CONF path once the node is idle
#   tests/slurm/cluster.sh stop DIR    # stops every daemon it started
set -euo pipefail
cmd=${1:?usage: cluster.sh start|stop DIR}
dir=${2:?usage: cluster.sh start|stop DIR}

stop() {
    if [ -f "$dir/slurm.conf" ]; then
        SLURM_CONF="$dir/slurm.conf" scontrol shutdown >/dev/null 2>&1 || true
    fi
    sleep 1
    for pid in slurmd slurmctld munged; do
        if [ -f "$dir/$pid.pid" ]; then
            kill "$(cat "$dir/$pid.pid")" 2>/dev/null || true
        fi
    done
}

start() {
    for tool in munged mungekey slurmctld slurmd sbatch scontrol sinfo; do
        command -v "$tool" >/dev/null || { echo "cluster.sh: $tool not found" >&2; exit 3; }
    done
    mkdir -p "$dir/state" "$dir/spool" "$dir/log"
    chmod 755 "$dir"
    mungekey --create --keyfile="$dir/munge.key" --force
    chmod 400 "$dir/munge.key"
    munged --force --socket="$dir/munge.sock" --key-file="$dir/munge.key" \
        --log-file="$dir/log/munged.log" --pid-file="$dir/munged.pid" --seed-file="$dir/munged.seed"
    local port=$((20000 + $$ % 20000)) host
    host=$(hostname -s)
    cat > "$dir/slurm.conf" <<CONF
ClusterName=bashnitest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$dir/munge.sock
CredType=cred/munge
SlurmUser=$(id -un)
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
MinJobAge=600
NodeName=bashninode NodeHostname=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF="$dir/slurm.conf"
    slurmctld -f "$SLURM_CONF"
    slurmd -f "$SLURM_CONF" -N bashninode
    for _ in $(seq 1 60); do
        if sinfo -h -o %t 2>/dev/null | grep -q idle; then
            echo "$SLURM_CONF"
            return 0
        fi
        sleep 0.5
    done
    echo "cluster.sh: the node did not become idle; logs in $dir/log" >&2
    stop
    exit 1
}

case "$cmd" in
    start) start ;;
    stop) stop ;;
    *) echo "usage: cluster.sh start|stop DIR" >&2; exit 2 ;;
esac
