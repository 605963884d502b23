"""What the A/B guard's bench scripts share: a script of a hyphenated name loaded as a module, the guard's interval
(bench/ab-interval-sim.py, TrimmedInterval's points), the spread between pairs of JVMs the library names today, and
the blocks log of a calibration's results file."""
import gzip
import importlib.util
import re
from pathlib import Path

BENCH = Path(__file__).resolve().parent


def module(name, file):
    """The bench script `file` loaded as module `name`."""
    spec = importlib.util.spec_from_file_location(name, BENCH / file)
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


SIM = module("sim", "ab-interval-sim.py")
PAIR_RUN = BENCH.parent / "src/main/java/dev/bottleneckkit/sweep/internal/run/PairRun.java"
PAIR_SPREAD = float(re.search(r"static final double PAIR_SPREAD = ([\d.]+);", PAIR_RUN.read_text())[1])


def blocks_log(results):
    """The blocks log bench/ab-calibration.sh keeps for a results file, as text: every guard's blocks and phases
    ("A/B took"), in bench/runs/NAME-blocks.log.gz (gzip members, one a calibration run); empty where there is none."""
    path = blocks_log_path(results)
    return gzip.open(path, "rt", errors="replace").read() if path.exists() else ""


def blocks_log_path(results):
    return BENCH / "runs" / (Path(results).name.removesuffix(".tsv") + "-blocks.log.gz")
