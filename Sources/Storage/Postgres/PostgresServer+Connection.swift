import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

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

    /// Opens a connection (a session's, or the change listener's), numbered for the driver's
    /// logs; `applicationName` shows in `pg_stat_activity`, for whoever wonders what it is.
    func connect(applicationName: String? = nil, logger: Logger) -> EventLoopFuture<PostgresConnection> {
        var configuration = connectionConfiguration
        if let applicationName { configuration.options.additionalStartupParameters.append(("application_name", applicationName)) }
        return PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration,
                                          id: Self.connections.wrappingAdd(1, ordering: .relaxed).newValue, logger: logger)
    }

    private static let connections = Atomic<Int>(0)
}
