import FuzzSupport

FuzzInput.runLibFuzzer(fuzzTileDecoder)
