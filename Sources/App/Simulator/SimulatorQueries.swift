import Storage

/// The simulator's SQL that the query builder cannot say: what a second backend would provide again.
enum SimulatorQueries {
    /// What a simulated device's state depends on, in one cheap statement: its state's revision,
    /// and a string that changes whenever the policy, its pending commands, group, supervision
    /// or apps do.
    static func probe(_ id: RecordID<DeviceRecord>) -> SQL {
        """
        SELECT coalesce((SELECT revision FROM simulator_states WHERE deviceID = d.id), -1) AS revision,
               (SELECT value FROM policy_generation) || '/' ||
               (SELECT count(*) FROM device_commands WHERE deviceID = d.id AND \(CommandQueue.waitingCondition)) || '/' ||
               coalesce(CAST(d.groupID AS TEXT), '') || '/' || d.isSupervised || '/' || d.installedApps AS inputs
        FROM devices d WHERE d.id = \(id)
        """
    }
}
