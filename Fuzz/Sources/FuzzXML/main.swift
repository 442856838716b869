import FuzzSupport

FuzzInput.runLibFuzzer(fuzzXML)
