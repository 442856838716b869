import FuzzSupport

FuzzInput.runLibFuzzer(fuzzMBTiles)
