"""The u8x codecs for Python's codec registry.

Built as CPython's own ``encodings.utf_8`` and ``encodings.utf_8_sig`` are,
on the extension's functions instead of ``codecs.utf_8_decode`` /
``codecs.utf_8_encode``: a stateless decode and encode, an incremental
decoder that keeps a cut sequence for the next call
(``codecs.BufferedIncrementalDecoder``), a stateless incremental encoder,
and a StreamReader / StreamWriter. So ``b.decode("u8x", errors)``,
``codecs.iterdecode``, ``open(..., encoding="u8x")`` and
``io.TextIOWrapper`` all use u8x.
"""

import codecs

from ._u8x import CODECS as _FUNCTIONS

NAMES = tuple(_FUNCTIONS)
_BOM = codecs.BOM_UTF8


def _plain(name):
    decode, decode_stream, encode = _FUNCTIONS[name]

    class IncrementalEncoder(codecs.IncrementalEncoder):
        def encode(self, input, final=False):
            return encode(input, self.errors)[0]

    class IncrementalDecoder(codecs.BufferedIncrementalDecoder):
        _buffer_decode = staticmethod(decode_stream)

    class StreamWriter(codecs.StreamWriter):
        pass

    class StreamReader(codecs.StreamReader):
        pass

    StreamWriter.encode = staticmethod(encode)
    StreamReader.decode = staticmethod(decode_stream)
    return codecs.CodecInfo(
        name=name,
        encode=encode,
        decode=decode,
        incrementalencoder=IncrementalEncoder,
        incrementaldecoder=IncrementalDecoder,
        streamreader=StreamReader,
        streamwriter=StreamWriter,
    )


def _sig(name):
    """u8x-sig: as utf-8-sig, a BOM written first and skipped when read."""
    plain_decode, plain_stream, encode = _FUNCTIONS["u8x"]
    bom_decode, bom_stream, _ = _FUNCTIONS[name]

    def sig_encode(input, errors="strict"):
        return (_BOM + encode(input, errors)[0], len(input))

    class IncrementalEncoder(codecs.IncrementalEncoder):
        def __init__(self, errors="strict"):
            super().__init__(errors)
            self.first = 1

        def encode(self, input, final=False):
            if self.first:
                self.first = 0
                return _BOM + encode(input, self.errors)[0]
            return encode(input, self.errors)[0]

        def reset(self):
            super().reset()
            self.first = 1

        def getstate(self):
            return self.first

        def setstate(self, state):
            self.first = state

    class IncrementalDecoder(codecs.BufferedIncrementalDecoder):
        # While `first`, the next bytes may begin with a BOM, which u8x's
        # U8X_SKIP_BOM drops (a cut BOM, EF or EF BB, waits for more).
        def __init__(self, errors="strict"):
            super().__init__(errors)
            self.first = 1

        def _buffer_decode(self, input, errors, final):
            if not self.first:
                return plain_stream(input, errors, final)
            out, consumed = bom_stream(input, errors, final)
            if consumed:
                self.first = 0
            return out, consumed

        def reset(self):
            super().reset()
            self.first = 1

        def getstate(self):
            state = super().getstate()
            return (state[0], self.first)

        def setstate(self, state):
            super().setstate(state)
            self.first = state[1]

    class StreamWriter(codecs.StreamWriter):
        def reset(self):
            super().reset()
            self.__dict__.pop("encode", None)

        def encode(self, input, errors="strict"):
            self.encode = encode
            return sig_encode(input, errors)

    class StreamReader(codecs.StreamReader):
        def reset(self):
            super().reset()
            self.__dict__.pop("decode", None)

        def decode(self, input, errors="strict"):
            out, consumed = bom_stream(input, errors)
            if consumed:
                self.decode = plain_stream
            return out, consumed

    return codecs.CodecInfo(
        name=name,
        encode=sig_encode,
        decode=bom_decode,
        incrementalencoder=IncrementalEncoder,
        incrementaldecoder=IncrementalDecoder,
        streamreader=StreamReader,
        streamwriter=StreamWriter,
    )


_INFOS = {}


def _normalize(name):
    return name.lower().replace("_", "-").replace(" ", "-")


def search(name):
    """The codec search function: u8x's names, with '_' or ' ' for '-'
    (codecs.lookup normalizes 'u8x-cesu-8' to 'u8x_cesu_8')."""
    name = _normalize(name)
    if name not in _FUNCTIONS:
        return None
    info = _INFOS.get(name)
    if info is None:
        info = _INFOS[name] = _sig(name) if name == "u8x-sig" else _plain(name)
    return info


_registered = False


def register():
    global _registered
    if not _registered:
        codecs.register(search)
        _registered = True
