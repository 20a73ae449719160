import FlowDSL
import Foundation

/// Where a service listens: the free loopback port flow chose for it before the run.
package struct ServiceEndpoint: Sendable, Hashable {
    /// The service's name.
    package let name: String
    /// The port on 127.0.0.1, read as `services.<name>.port`.
    package let port: Int

    /// `http://127.0.0.1:<port>` (or the URL of a service that runs elsewhere), read as
    /// `services.<name>.url`.
    package let url: String
    /// Whether the service runs elsewhere and flow does not start it (see `init(name:port:url:)`).
    package let isExternal: Bool

    /// An endpoint.
    package init(name: String, port: Int) {
        self.name = name
        self.port = port
        url = "http://127.0.0.1:\(port)"
        isExternal = false
    }

    /// The endpoint of a service already running at `url` (`flow run --service NAME=URL`, as an
    /// exported Argo workflow's tasks reach its service tasks): flow does not start it.
    package init(name: String, port: Int, url: String) {
        self.name = name
        self.port = port
        self.url = url
        isExternal = true
    }

    /// A distinct free loopback port for every service, by name.
    ///
    /// A port is free when flow picks it, but the service binds it a moment later, and meanwhile
    /// the kernel may hand it to anyone: as the local port of any process's outgoing connection,
    /// or to any `bind` to port 0, both of which draw from the ephemeral range
    /// (`net.ipv4.ip_local_port_range`, usually 32768–60999). So flow picks ports below that range
    /// (at random, each checked by binding it), which only an explicit bind to that very port can
    /// take; where there is no room below the range, it lets the kernel choose (port 0). Every
    /// socket stays open until all are chosen, so two services never get the same port.
    package static func allocate(for services: [Service]) throws(ServicePortError) -> [String: ServiceEndpoint] {
        var sockets: [Int32] = []
        defer { for socket in sockets { close(socket) } }
        var endpoints: [String: ServiceEndpoint] = [:]
        let below = portsBelowEphemeralRange()
        for service in services {
            var chosen: (Int32, Int)?
            if let below {
                for _ in 0..<64 where chosen == nil { chosen = try? bind(port: Int.random(in: below)) }
            }
            if chosen == nil { chosen = try bind(port: 0) }
            guard let (socket, port) = chosen else { continue }
            sockets.append(socket)
            endpoints[service.name] = ServiceEndpoint(name: service.name, port: port)
        }
        return endpoints
    }

    /// A free port for the service `name` picked as `allocate` picks one, other than those in
    /// `avoiding` (the ports already given out or tried): where a service goes when its port was
    /// taken before it bound it.
    static func fresh(for name: String, avoiding: Set<Int>) throws(ServicePortError) -> ServiceEndpoint {
        let below = portsBelowEphemeralRange()
        for _ in 0..<64 {
            let socket: Int32
            let port: Int
            if let below, let found = try? bind(port: Int.random(in: below)) {
                (socket, port) = found
            } else {
                (socket, port) = try bind(port: 0)
            }
            close(socket)
            if !avoiding.contains(port) { return ServiceEndpoint(name: name, port: port) }
        }
        throw ServicePortError(reason: "every port tried was taken")
    }

    /// Up to 20,000 ports just below the kernel's ephemeral range, none below 1024; nil when there
    /// is no room (or no /proc to read the range from).
    package static func portsBelowEphemeralRange() -> ClosedRange<Int>? {
        guard let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8),
            let low = text.split(whereSeparator: \.isWhitespace).first.flatMap({ Int($0) }),
            low - 1 > 2048
        else { return nil }
        return max(2048, low - 20_000)...(low - 1)
    }

    private static func bind(port: Int) throws(ServicePortError) -> (Int32, Int) {
        let fd = socket(AF_INET, SystemCall.streamSocket, 0)
        guard fd >= 0 else { throw ServicePortError(reason: String(cString: strerror(errno))) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                SystemCall.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named =
            bound == 0
            ? withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            } : -1
        guard named == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ServicePortError(reason: reason)
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}

/// No free loopback port could be found for a service.
package struct ServicePortError: Error, Sendable, CustomStringConvertible {
    /// What the system said.
    package let reason: String

    /// A message for the user.
    package var description: String { "cannot find a free port on 127.0.0.1 for the services: \(reason)" }
}
