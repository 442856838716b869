import FuzzSupport

FuzzInput.runLibFuzzer(fuzzExpression)
