# The tests import the installed package (pip install ./bindings/python):
# the extension is compiled, so the checkout's u8x/ has no _u8x module.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
