r"""Records a measured presence gate that is not worth shipping in a bundle's ``bundle.json``.

``bioner_mrc.gate`` measures the passes a gate saves and the F1 it costs; ``export --gate`` ships one
that pays. A gate that costs more than ``MAX_GATE_F1_LOSS`` at every threshold saving passes is not put
into the graph (a graph output nobody should turn on, and a new bundle version for it), but its verdict
and table go into the bundle as ``gate_measured``, so that whoever reads the bundle knows it was
measured and why it is off:

    python3 -m bioner_mrc.gate_record --gate RUN/gate.pt --measured-with "NAME:VERSION float32" \
        --bundle ../job/src/main/resources/bundles/default --bundle ../bundles/default-int8

The bundle's model and files stay as they are (their hashes are checked and kept).
"""
import argparse
import json
import os
import sys
from typing import Dict

import torch

from . import bundle_writer
from .gate import MAX_GATE_F1_LOSS, choose_gate

SECTION = "gate_measured"


def measured_verdict(saved: Dict) -> Dict:
    """The exporter's verdict without a graph output; refused when the gate would be on (then ship it)."""
    verdict = {k: v for k, v in choose_gate(saved).items() if k != "output"}
    if verdict["enabled"]:
        raise ValueError(f"the gate saves {verdict['passes_saved_percent']}% of the passes within "
                         f"{MAX_GATE_F1_LOSS} F1 at threshold {verdict['threshold']}: ship it (export --gate)")
    return verdict


def record(bundle: str, saved: Dict, measured_with: str) -> Dict:
    path = os.path.join(bundle, "bundle.json")
    with open(path, encoding="utf-8") as f:
        manifest = json.load(f)
    if "gate" in manifest:
        raise ValueError(f"{bundle} already ships a gate in its graph")
    hashes = {name: bundle_writer.sha256(os.path.join(bundle, name)) for name in manifest["files"]}
    if hashes != manifest["files"]:
        raise ValueError(f"{bundle}: its files differ from the hashes in bundle.json")
    manifest[SECTION] = {**measured_verdict(saved), "measured_with": measured_with}
    return bundle_writer.write(bundle, manifest)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--gate", required=True, help="the gate.pt bioner_mrc.gate saved")
    p.add_argument("--bundle", action="append", required=True, help="bundle folder to record it in (repeatable)")
    p.add_argument("--measured-with", required=True,
                   help="the model and arithmetic the gate was measured with, e.g. NAME:VERSION float32: an int8 "
                        "twin may carry its float model's measurement")
    args = p.parse_args(argv)
    saved = torch.load(args.gate, map_location="cpu")
    try:
        for bundle in args.bundle:
            written = record(bundle, saved, args.measured_with)
            print(json.dumps({"bundle": bundle, SECTION: {k: v for k, v in written[SECTION].items()
                                                          if k != "measured"}}), flush=True)
    except (ValueError, FileNotFoundError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
