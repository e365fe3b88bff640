enum SupervisorPlaceholder {}
