import FuzzSupport

FuzzInput.runLibFuzzer(fuzzManifest)
