import ARSession
import ARSimCLI
import Foundation
import PinKind

// ARSim's command line with the `pin` kind registered after the built-in ones.
var registry = SessionRegistry.builtIn
registry.register(PinKind())
exit(ARSimCLI.run(arguments: Array(CommandLine.arguments.dropFirst()), registry: registry))
