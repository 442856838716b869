import FuzzSupport

FuzzInput.runLibFuzzer(fuzzStyle)
