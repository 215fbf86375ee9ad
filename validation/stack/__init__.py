"""Statics of a centred stack of rigid blocks (boxes, drums) under a held horizontal acceleration.

Which joint opens first and at what a/g (half-width of the joint's contact face ÷ height of the centre of
mass of the blocks above it), and the sliding threshold a/g = μ at each joint; independent of the DEM
engine. Lengths [m], masses [kg], density [kg/m³], accelerations in units of g [-].

Modules: blocks (Box, Drum: volume, centroid height, face half-widths), thresholds (stack_thresholds).
"""

from validation.stack.blocks import Box, Drum
from validation.stack.thresholds import StackThresholds, stack_thresholds

__all__ = ["Box", "Drum", "StackThresholds", "stack_thresholds"]
