// ARSimTesting
