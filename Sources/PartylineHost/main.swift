import Host

// `partyline-host`: everything it does is `HostProgram.run` in the Host library (so tests and tools can link it).
HostProgram.run(arguments: Array(CommandLine.arguments.dropFirst()))
