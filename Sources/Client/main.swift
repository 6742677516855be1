import Foundation
import Net
import Protocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The one place where the client meets the outside world: options, questions, discovery, then the loop.

signal(SIGPIPE, SIG_IGN)

let parsedOptions: (ClientOptions, ClientOptions.Command)
do {
    parsedOptions = try ClientOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    Output.error("partyline: \(error.message)")
    exit(2)
}

switch parsedOptions.1 {
case .help:
    print(ClientOptions.helpText)
    exit(0)
case .version:
    print("partyline 0.1.0 (protocol \(wireProtocolVersion))")
    exit(0)
case .run:
    break
}

var setup = Setup(options: parsedOptions.0)
exit(setup.run())

/// Fills in what the command line left out (asking the person, or searching the LAN), then runs the client.
struct Setup {
    var options: ClientOptions
    let isInteractive = isatty(STDIN_FILENO) == 1
    let mode: DisplayMode

    init(options: ClientOptions) {
        self.options = options
        let isTerminal = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        let isDumb = ProcessInfo.processInfo.environment["TERM"] == "dumb"
        mode = isTerminal && !options.isPlainForced && !isDumb ? .screen : .plain
    }

    func fail(_ message: String, status: Int32 = 1) -> Never {
        Output.error("partyline: " + message)
        exit(status)
    }

    /// Asks for a value on the terminal; nil at end of input.
    func ask(_ prompt: String, default defaultValue: String? = nil) -> String? {
        while true {
            Output.write(prompt, to: STDERR_FILENO)
            guard let line = readLine() else { return nil }
            let value = line.trimmingCharacters(in: .whitespaces)
            if !value.isEmpty { return value }
            if let defaultValue { return defaultValue }
        }
    }

    /// Says something about setup: on stdout in plain mode (scripts read it), on stderr otherwise.
    func say(_ text: String) {
        if mode == .plain { Output.line(text) } else { Output.error(text) }
    }

    mutating func run() -> Int32 {
        if options.host == nil { discover() }
        guard let host = options.host else { fail("No host to join.") }
        guard let address = Network.resolve(host, port: options.port) else {
            fail("Cannot find the host \"\(host)\": not an IPv4 address or a known name.", status: 2)
        }
        let addressText = "\(host)\(options.port == ClientOptions.defaultPort ? "" : ":\(options.port)")"
        if options.room == nil {
            if let answer = DiscoveryScanner.ask(address) {
                options.room = answer.room
                say("The host at \(addressText) runs room \(answer.room).")
            } else if isInteractive, let room = ask("Room code (shown on the host's screen): ") {
                options.room = room.uppercased()
            } else {
                fail("Which room? Give --room CODE (the code is shown on the host's screen).", status: 2)
            }
        }
        // The place kept from an earlier run in this room: its token brings the same player back.
        let placeHost = "\(host):\(options.port)"
        let room = options.room ?? ""
        let placeFile = options.role == .player ? ResumeFile.standard() : nil
        var places = placeFile?.load() ?? ResumePlaces()
        let now = Int64(Date().timeIntervalSince1970)
        if options.isForgetting, let placeFile {
            places.forget(host: placeHost, room: room, name: options.name)
            try? placeFile.save(places)
        }
        var place = options.isForgetting ? nil : places.place(host: placeHost, room: room, name: options.name, now: now)
        if options.role == .player {
            if options.name == nil {
                if isInteractive {
                    let known = place.map { " [\($0.name)]" } ?? ""
                    guard let name = ask("Your name\(known): ", default: place?.name) else {
                        fail("Give your name with --name NAME.", status: 2)
                    }
                    options.name = name
                } else if let place {
                    options.name = place.name
                } else {
                    fail("Give your name with --name NAME.", status: 2)
                }
                place = places.place(host: placeHost, room: room, name: options.name, now: now)
            }
            if options.team == nil {
                if let place {
                    options.team = place.team
                } else {
                    let question = "Your team (Enter: a team of one named after you): "
                    options.team = isInteractive ? (ask(question, default: "") ?? "") : ""
                }
            }
            if let place {
                say("Coming back as \(place.name) (\(place.team)) in room \(room); --forget joins as someone new.")
            }
        }
        do {
            let app = try ClientApp(
                options: options, mode: mode, isInteractive: isInteractive, address: address,
                addressText: addressText, room: room, name: options.name ?? "",
                team: options.team ?? "", token: place?.token, placeFile: placeFile,
                placeHost: placeHost)
            return app.run()
        } catch {
            fail("Cannot start: \(error).")
        }
    }

    /// Searches the LAN and picks a host (asking when several answer on a terminal).
    mutating func discover() {
        let scanner: DiscoveryScanner
        do {
            scanner = try DiscoveryScanner(probePort: options.discoverPort)
        } catch {
            fail("Cannot search the network: \(error). Give the host's address instead.", status: 2)
        }
        say("Looking for Partyline hosts on this network…")
        var hosts = scanner.scan(for: 2000)
        while true {
            if hosts.isEmpty {
                guard isInteractive else {
                    fail(
                        "No Partyline host answered on this network (UDP port \(options.discoverPort)). Give the host's address: partyline HOST[:PORT]."
                    )
                }
                guard
                    let answer = ask(
                        "No host answered. Type the host's address, or press Enter to search again: ", default: "")
                else {
                    fail("No host chosen.")
                }
                if !answer.isEmpty { return useAddress(answer) }
                hosts = scanner.scan(for: 2000)
                continue
            }
            say(hosts.count == 1 ? "Found 1 host:" : "Found \(hosts.count) hosts:")
            for (index, host) in hosts.enumerated() { say("  \(index + 1). \(host.summary)") }
            if let room = options.room, let match = hosts.first(where: { $0.room == room }) { return use(match) }
            if !isInteractive {
                guard hosts.count == 1 else {
                    fail("Several hosts answered; choose one with --room CODE or give its address.")
                }
                return use(hosts[0])
            }
            guard
                let answer = ask(DiscoveryList.joinQuestion(hostCount: hosts.count), default: "1")
            else {
                fail("No host chosen.")
            }
            if answer.lowercased() == "r" {
                hosts = scanner.scan(for: 2000)
                continue
            }
            if let number = Int(answer), hosts.indices.contains(number - 1) { return use(hosts[number - 1]) }
            if hosts.count == 1, ["y", "yes"].contains(answer.lowercased()) { return use(hosts[0]) }
            return useAddress(answer)
        }
    }

    mutating func use(_ host: DiscoveredHost) {
        say("Joining \(host.summary)")
        options.host = host.address
        options.port = host.port
        if options.room == nil { options.room = host.room }
    }

    mutating func useAddress(_ text: String) {
        do {
            let (host, port) = try ClientOptions.parseAddress(text)
            options.host = host
            if let port { options.port = port }
        } catch {
            fail(error.message, status: 2)
        }
    }
}
