import FlowDSL
import Foundation

/// Where a service listens: the free loopback port flow chose for it before the run.
public struct ServiceEndpoint: Sendable, Hashable {
    /// The service's name.
    public let name: String
    /// The port on 127.0.0.1, read as `services.<name>.port`.
    public let port: Int

    /// `http://127.0.0.1:<port>` (or the URL of a service that runs elsewhere), read as
    /// `services.<name>.url`.
    public let url: String
    /// Whether the service runs elsewhere and flow does not start it (see `init(name:port:url:)`).
    public let isExternal: Bool

    /// An endpoint.
    public init(name: String, port: Int) {
        self.name = name
        self.port = port
        url = "http://127.0.0.1:\(port)"
        isExternal = false
    }

    /// The endpoint of a service already running at `url` (`flow run --service NAME=URL`, as an
    /// exported Argo workflow's tasks reach its service tasks): flow does not start it.
    public init(name: String, port: Int, url: String) {
        self.name = name
        self.port = port
        self.url = url
        isExternal = true
    }

    /// A distinct free loopback port for every service, by name.
    ///
    /// Each port is found by binding 127.0.0.1:0 and asking the kernel which port it gave; every
    /// socket stays open until all are chosen, so two services never get the same port.
    public static func allocate(for services: [Service]) throws(ServicePortError) -> [String: ServiceEndpoint] {
        var sockets: [Int32] = []
        defer { for socket in sockets { close(socket) } }
        var endpoints: [String: ServiceEndpoint] = [:]
        for service in services {
            let (socket, port) = try bindEphemeral()
            sockets.append(socket)
            endpoints[service.name] = ServiceEndpoint(name: service.name, port: port)
        }
        return endpoints
    }

    private static func bindEphemeral() throws(ServicePortError) -> (Int32, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServicePortError(reason: String(cString: strerror(errno))) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
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
public struct ServicePortError: Error, Sendable, CustomStringConvertible {
    /// What the system said.
    public let reason: String

    /// A message for the user.
    public var description: String { "cannot find a free port on 127.0.0.1 for the services: \(reason)" }
}
