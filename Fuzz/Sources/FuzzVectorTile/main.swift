import FuzzSupport

FuzzInput.runLibFuzzer(fuzzVectorTile)
