import Logging
import NIOPosix
import PostgresNIO

extension PostgresServer {
    /// How postgres-nio reaches this server: its address and credentials, a five-second limit
    /// to connect, and the schema as the search path.
    var connectionConfiguration: PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        switch address {
        case .tcp(let host, let port):
            configuration = .init(host: host, port: port, username: username, password: password, database: database, tls: .disable)
        case .unixSocket(let path):
            configuration = .init(unixSocketPath: path, username: username, password: password, database: database)
        }
        configuration.options.connectTimeout = .seconds(5)
        if let schema { configuration.options.additionalStartupParameters = [("search_path", schema)] }
        return configuration
    }

    /// Opens a connection of the driver's own, for what our sessions do not do (`LISTEN`).
    func connect(id: Int, logger: Logger) async throws -> PostgresConnection {
        try await PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.any(), configuration: connectionConfiguration,
                                             id: id, logger: logger)
    }
}
