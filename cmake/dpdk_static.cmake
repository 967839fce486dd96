# DPDK, linked statically: the EAL then finds no shared librte_eal and loads no driver plugins.
# Linked shared, it dlopen()s every driver of the system's plugin directory at start-up (384
# libraries on Debian 12: tens of ms and several MB of RSS before the first event), whatever
# the mode. The static link holds the libraries the emulator uses and the drivers real-time
# mode supports: the virtual devices (af_packet, tap, null, ring) and the common datacenter NICs
# (Intel ice/i40e/iavf/ixgbe/e1000, NVIDIA mlx5, virtio). Drivers register themselves in
# constructors, so each archive is linked whole.
set(FE_DPDK_ARCHIVES
    net_af_packet net_tap net_null net_ring
    net_ice net_i40e net_iavf common_iavf net_ixgbe net_e1000 net_virtio
    net_mlx5 common_mlx5 bus_auxiliary
    bus_pci bus_vdev mempool_ring mempool_stack
    ethdev gso net meter mbuf mempool stack ring hash rcu security cryptodev pci eal kvargs
    telemetry)
set(fe_dpdk_targets)
foreach(lib IN LISTS FE_DPDK_ARCHIVES)
  find_library(FE_DPDK_${lib} NAMES librte_${lib}.a HINTS ${DPDK_LIBRARY_DIRS} REQUIRED)
  add_library(fe_dpdk_${lib} STATIC IMPORTED)
  set_target_properties(fe_dpdk_${lib} PROPERTIES IMPORTED_LOCATION ${FE_DPDK_${lib}})
  list(APPEND fe_dpdk_targets fe_dpdk_${lib})
endforeach()
# What the drivers above need from the system, linked shared as usual.
target_link_libraries(fe_dpdk INTERFACE "$<LINK_LIBRARY:WHOLE_ARCHIVE,${fe_dpdk_targets}>"
  numa fdt bsd ibverbs mlx5 nl-3 nl-route-3 elf z dl m Threads::Threads)
# Software mode's EAL start-up shortcuts (dataplane/eal_syscalls.cc): the EAL's calls to
# access() and nanosleep() go to __wrap_access and __wrap_nanosleep; -u pulls their object out of
# fe_dataplane for every program linking DPDK, whichever of fe_dataplane's functions it calls.
target_link_options(fe_dpdk INTERFACE "LINKER:--wrap=access,--wrap=nanosleep"
  "LINKER:-u,__wrap_access,-u,__wrap_nanosleep")
