# Included by app/CMakeLists.txt: parasail (Debian libparasail-dev) as the optional peer of
# `dpviz bench --peer`. Without it the bench still runs and says that --peer is unavailable.
find_library(PARASAIL_LIB parasail)
find_path(PARASAIL_INCLUDE_DIR parasail.h)
if(PARASAIL_LIB AND PARASAIL_INCLUDE_DIR)
  target_compile_definitions(dpviz_app PRIVATE DPVIZ_HAVE_PARASAIL=1)
  target_include_directories(dpviz_app PRIVATE ${PARASAIL_INCLUDE_DIR})
  target_link_libraries(dpviz_app PRIVATE ${PARASAIL_LIB})
  message(STATUS "dpviz: parasail ${PARASAIL_LIB}: dpviz bench --peer available")
else()
  message(STATUS "dpviz: parasail not found: dpviz bench --peer unavailable")
endif()
