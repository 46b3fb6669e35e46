# cmake -DIN=<class file> -DOUT=<header> -DNAME=<array name> -P class_to_header.cmake:
# the class file's bytes as a C array, for JNI DefineClass.
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" n)
math(EXPR bytes "${n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
file(WRITE "${OUT}" "/* Generated from ${IN} by class_to_header.cmake: do not edit. */\n"
     "static const unsigned char ${NAME}[${bytes}] = {${body}};\n")
