import FuzzSupport

FuzzInput.runLibFuzzer(fuzzGeoJSON)
