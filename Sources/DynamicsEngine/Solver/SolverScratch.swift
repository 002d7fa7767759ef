/// The solver's scratch space: the per-step arrays of the solver phases (`World+Solve.swift`),
/// kept from step to step for their capacity (see `ScratchBuffer`).
///
/// Owns: the dense body records, the joint sims, the contacts in contact and in solve order with
/// their colours and impulses, the scalar and four-wide constraints, and the impact pass's arrays.
/// Invariant: nothing in them means anything outside a step (a `StepContext` hands their pointers
/// from phase to phase), except the solved contacts, which `World.updateSleep` reads at the end of
/// the step that wrote them: `solvedContactCount` says how many, and is −1 between steps (awake
/// indices are only valid within a step). Nothing here is saved in a snapshot.
struct SolverScratch {
    /// Per awake body (and the shared zero record, and the threads' trash records): `BodyState`.
    let states = ScratchBuffer<BodyState>()
    /// Per awake body (and the shared zero record): `BodyStepData`.
    let sims = ScratchBuffer<BodyStepData>()
    /// The awake joints' solver records, in solve order.
    let jointSims = ScratchBuffer<JointSim>()
    /// The step's touching contacts in solve order (overflow, then colour by colour), with what
    /// their preparation reads.
    let orderedContacts = ScratchBuffer<ContactInput>()
    /// The same contacts in contact order, before sorting by colour; `updateSleep` walks them too.
    let solvedContacts = ScratchBuffer<SolvedContact>()
    /// The solved contacts' impulses, in the order of `solvedContacts`.
    let solvedImpulses = ScratchBuffer<SolvedImpulses>()
    /// The scan's finds, packed at the front of each block of contact slots (see
    /// `World.scanContacts`).
    let scannedContacts = ScratchBuffer<SolvedContact>()
    /// Per body slot: its place in the awake list, or −1 (for the scan, which would otherwise read
    /// two body records per contact slot).
    let awakeSlots = ScratchBuffer<Int32>()
    /// Per block of the scan: where its overflow contacts are in `scannedContacts`.
    let overflowFound = ScratchBuffer<Int32>()
    /// Overflow contacts, prepared as scalar constraints.
    let overflow = ScratchBuffer<ContactConstraint>()
    /// Coloured contacts, prepared `WideLane.count` lanes wide.
    let wide = ScratchBuffer<WideContact>()
    /// Beside each wide constraint, its fields that the sub-steps do not read.
    let wideExtras = ScratchBuffer<WideContactExtras>()
    /// Contacts per wide constraint (1…`WideLane.count`; default all lanes). Fewer only in tests,
    /// which show that how a colour is grouped into lanes changes no result (`WideLaneTests`).
    var wideLanesFilled = WideLane.count
    /// For each wide constraint: where its first lane's contact is in the solve order.
    let wideFirst = ScratchBuffer<Int32>()
    /// Elastic contacts for the impact pass (`resolveImpactChains`).
    let impacts = ScratchBuffer<Impact>()
    /// Per awake body: elastic contacts with other dynamic bodies (capped at 2), then the sweep
    /// that last changed its velocity.
    let impactBodies = ScratchBuffer<ImpactBody>()
    /// What `World.updateSleep`'s walk over `solvedContacts` found (`SleepLink`), at most one
    /// entry a contact.
    let sleepLinks = ScratchBuffer<SIMD2<Int32>>()
    /// How many entries of `solvedContacts` the last solve wrote, or −1 once the step is over.
    var solvedContactCount = -1

    /// Why none of it is in a snapshot (`SnapshotFormatTests` checks this list against the struct).
    static let snapshotCoverage: KeyValuePairs<String, String> = [
        "states": "per-step scratch", "sims": "per-step scratch", "jointSims": "per-step scratch",
        "orderedContacts": "per-step scratch", "solvedContacts": "per-step scratch",
        "solvedImpulses": "per-step scratch", "scannedContacts": "per-step scratch",
        "overflowFound": "per-step scratch", "awakeSlots": "per-step scratch",
        "overflow": "per-step scratch", "wide": "per-step scratch", "wideExtras": "per-step scratch",
        "wideFirst": "per-step scratch",
        "wideLanesFilled": "a test setting, not world state (it changes no result)",
        "impacts": "per-step scratch", "impactBodies": "per-step scratch", "sleepLinks": "per-step scratch",
        "solvedContactCount": "per-step scratch (−1 between steps)",
    ]
}
