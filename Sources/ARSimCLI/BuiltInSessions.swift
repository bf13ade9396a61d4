import ARCollaboration
import ARDisplayer
import ARMeasure
import ARRemoteAssist
import ARSession

extension SessionRegistry {
  /// The source apps ARSim reproduces, in the order their sessions run each tick (after the
  /// plane visualisations), which fixes the order of events and trace fields: measure,
  /// displayers, remote assist, then collaboration (whose scenes render one view per
  /// participant).
  public static var builtIn: SessionRegistry {
    SessionRegistry([MeasureKind(), DisplayerKind(), RemoteAssistKind(), CollaborationKind()])
  }
}
