import Foundation
import Storage

extension Schema {
    /// One command queue for the simulator, the device API and MDM: a command is handed out
    /// (sent) before a device reports on it, can be cancelled or expire, and keeps how often
    /// the device answered NotNow and since when. The partial index covers the waiting
    /// commands every check-in reads, under the condition `CommandQueue.waitingCondition`
    /// spells the same way.
    static let commandQueue = Migration(26, "one command queue: sent, cancelled, expired and NotNow counts") { connection in
        let statuses = "'queued', 'sent', 'acknowledged', 'error', 'formatError', 'notNow', 'cancelled', 'expired'"
        if connection.dialect == .sqlite {
            try connection.rebuildSQLiteTable("device_commands") { definition in
                let old = "CHECK (status IN ('queued', 'acknowledged', 'error', 'notNow'))"
                guard let range = definition.range(of: old) else { throw StorageError.invalidQuery("device_commands' status check is not as migration 7 made it") }
                return definition.replacingCharacters(in: range, with: "CHECK (status IN (\(statuses)))")
            }
            try connection.execute(script: """
                ALTER TABLE device_commands ADD COLUMN sentAt REAL;
                ALTER TABLE device_commands ADD COLUMN notNowCount INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE device_commands ADD COLUMN firstNotNowAt REAL;
                DROP INDEX device_commands_queued;
                CREATE INDEX device_commands_waiting ON device_commands(deviceID, id) WHERE status IN ('queued', 'sent', 'notNow');
                """)
        } else {
            try connection.execute(script: """
                ALTER TABLE device_commands DROP CONSTRAINT device_commands_status_check;
                ALTER TABLE device_commands ADD CONSTRAINT device_commands_status_check CHECK (status IN (\(statuses)));
                ALTER TABLE device_commands ADD COLUMN sentAt timestamptz;
                ALTER TABLE device_commands ADD COLUMN notNowCount integer NOT NULL DEFAULT 0;
                ALTER TABLE device_commands ADD COLUMN firstNotNowAt timestamptz;
                DROP INDEX device_commands_queued;
                CREATE INDEX device_commands_waiting ON device_commands (deviceID, id) WHERE status IN ('queued', 'sent', 'notNow');
                """)
        }
    }
}
