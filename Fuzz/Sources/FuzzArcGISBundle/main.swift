import FuzzSupport

FuzzInput.runLibFuzzer(fuzzArcGISBundle)
