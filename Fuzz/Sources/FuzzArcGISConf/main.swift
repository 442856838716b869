import FuzzSupport

FuzzInput.runLibFuzzer(fuzzArcGISConf)
