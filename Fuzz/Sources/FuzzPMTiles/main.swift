import FuzzSupport

FuzzInput.runLibFuzzer(fuzzPMTiles)
