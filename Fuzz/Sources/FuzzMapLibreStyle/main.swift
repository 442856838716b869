import FuzzSupport

FuzzInput.runLibFuzzer(fuzzMapLibreStyle)
